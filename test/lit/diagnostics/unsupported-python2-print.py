# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
print "hello"
# CHECK:      {{.*}}unsupported-python2-print.py:[[@LINE-1]]:1: error: Python 2 'print' statements are not supported by agc
# CHECK-NEXT: print "hello"
# CHECK-NEXT: ^~~~~~~~~~~~~
