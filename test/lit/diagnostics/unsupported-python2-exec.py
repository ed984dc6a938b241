# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
exec "x = 1"
# CHECK:      {{.*}}unsupported-python2-exec.py:[[@LINE-1]]:1: error: Python 2 'exec' statements are not supported by agc
# CHECK-NEXT: exec "x = 1"
# CHECK-NEXT: ^~~~~~~~~~~~
