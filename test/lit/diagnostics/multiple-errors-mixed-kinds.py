# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = [i for i in y]
break
s = {1, 2}
# CHECK:      {{.*}}multiple-errors-mixed-kinds.py:[[@LINE-3]]:5: error: list comprehensions are not supported by agc
# CHECK-NEXT: x = [i for i in y]
# CHECK-NEXT:     ^~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}multiple-errors-mixed-kinds.py:[[@LINE-5]]:1: error: 'break' outside loop
# CHECK-NEXT: break
# CHECK-NEXT: ^~~~~
# CHECK-NEXT: {{.*}}multiple-errors-mixed-kinds.py:[[@LINE-7]]:5: error: set displays are not supported by agc
# CHECK-NEXT: s = {1, 2}
# CHECK-NEXT:     ^~~~~~
