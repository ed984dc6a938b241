# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
# Python 2's exec statement is a syntax error in Python 3: the whole file fails.
exec "x = 1"
# CHECK:      {{.*}}unsupported-python2-exec.py:[[@LINE-1]]:1: error: Missing parentheses in call to 'exec'. Did you mean exec(...)?
# CHECK-NEXT: exec "x = 1"
# CHECK-NEXT: ^~~~~~~~~~~~
