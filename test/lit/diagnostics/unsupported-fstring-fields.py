# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = f"a{y}b"
# CHECK:      {{.*}}unsupported-fstring-fields.py:[[@LINE-1]]:5: error: f-strings are not supported by agc
# CHECK-NEXT: x = f"a{y}b"
# CHECK-NEXT:     ^~~~~~~~
