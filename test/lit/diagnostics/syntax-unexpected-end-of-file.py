# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
# The binary operator has no right operand; the file ends on the next line.
# CHECK:      {{.*}}syntax-unexpected-end-of-file.py:[[@LINE+6]]:8: error: invalid syntax: unexpected end of file
# CHECK-NEXT: x = 1 +
# CHECK-NEXT:        ^
# CHECK-NEXT: {{.*}}syntax-unexpected-end-of-file.py:[[@LINE+3]]:1: note: in the construct that starts here
# CHECK-NEXT: x = 1 +
# CHECK-NEXT: ^
x = 1 +
