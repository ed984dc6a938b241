# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
y = {x: x for x in range(3)}
# CHECK:      {{.*}}unsupported-dict-comprehension.py:[[@LINE-1]]:5: error: dict comprehensions are not supported by agc
# CHECK-NEXT: y = {x: x for x in range(3)}
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~~~~
