# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
# A syntax error fails the whole file, and alone: what agc cannot compile is reported
# only where tracing reaches it, and a file with a syntax error is not traced.
x = [i for i in y]
break
s = {1, 2}
# CHECK:      {{.*}}multiple-errors-mixed-kinds.py:[[@LINE-2]]:1: error: 'break' outside loop
# CHECK-NEXT: break
# CHECK-NEXT: ^~~~~
# CHECK-NOT:  error
