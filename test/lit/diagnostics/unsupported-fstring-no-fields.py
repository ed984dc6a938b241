# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = f"abc"
# CHECK:      {{.*}}unsupported-fstring-no-fields.py:[[@LINE-1]]:5: error: f-strings are not supported by agc
# CHECK-NEXT: x = f"abc"
# CHECK-NEXT:     ^~~~~~
