# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
y = sum(x for x in range(3))
# CHECK:      {{.*}}unsupported-generator-sole-call-argument.py:[[@LINE-1]]:8: error: generator expressions are not supported by agc
# CHECK-NEXT: y = sum(x for x in range(3))
# CHECK-NEXT:        ^~~~~~~~~~~~~~~~~~~~~
