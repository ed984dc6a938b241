# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
try:
    x = 1
except ValueError:
    pass
# CHECK:      {{.*}}unsupported-try.py:[[@LINE-4]]:1: error: 'try' statements are not supported by agc
# CHECK-NEXT: try:
# CHECK-NEXT: ^~~~
