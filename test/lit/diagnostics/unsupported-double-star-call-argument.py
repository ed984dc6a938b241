# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
f(**kw)
# CHECK:      {{.*}}unsupported-double-star-call-argument.py:[[@LINE-1]]:3: error: unpacking with '**' is not supported by agc
# CHECK-NEXT: f(**kw)
# CHECK-NEXT:   ^~~~
