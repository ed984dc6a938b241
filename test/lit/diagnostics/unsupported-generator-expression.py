# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
y = (x for x in range(3))
# CHECK:      {{.*}}unsupported-generator-expression.py:[[@LINE-1]]:5: error: generator expressions are not supported by agc
# CHECK-NEXT: y = (x for x in range(3))
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
