# RUN: %expect_exit 1 %agc --emit=ast --error-limit=2 %s 2>&1 | FileCheck %s --match-full-lines
a = lambda: 1
b = lambda: 2
c = lambda: 3
d = lambda: 4
# CHECK:      {{.*}}error-limit.py:[[@LINE-4]]:5: error: lambda expressions are not supported by agc
# CHECK-NEXT: a = lambda: 1
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}error-limit.py:[[@LINE-6]]:5: error: lambda expressions are not supported by agc
# CHECK-NEXT: b = lambda: 2
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: agc: error: too many errors (2), stopping here
# CHECK-NOT:  c = lambda: 3
# CHECK-NOT:  d = lambda: 4
