# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
# Python 2's print statement is a syntax error in Python 3: the whole file fails.
print "hello"
# CHECK:      {{.*}}unsupported-python2-print.py:[[@LINE-1]]:1: error: Missing parentheses in call to 'print'. Did you mean print(...)?
# CHECK-NEXT: print "hello"
# CHECK-NEXT: ^~~~~~~~~~~~~
