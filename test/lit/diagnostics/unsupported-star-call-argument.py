# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
f(*args)
# CHECK:      {{.*}}unsupported-star-call-argument.py:[[@LINE-1]]:3: error: unpacking with '*' is not supported by agc
# CHECK-NEXT: f(*args)
# CHECK-NEXT:   ^~~~~
