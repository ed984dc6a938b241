# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
class Model:
    pass
# CHECK:      {{.*}}unsupported-class.py:[[@LINE-2]]:1: error: class definitions are not supported by agc
# CHECK-NEXT: class Model:
# CHECK-NEXT: ^~~~~~~~~~~~
