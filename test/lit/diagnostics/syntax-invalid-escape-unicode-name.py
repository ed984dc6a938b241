# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = '\N{DASH}'
# CHECK:      {{.*}}syntax-invalid-escape-unicode-name.py:[[@LINE-1]]:6: error: named Unicode escapes ('\N{...}') are not supported by agc
# CHECK-NEXT: x = '\N{DASH}'
# CHECK-NEXT:      ^~
