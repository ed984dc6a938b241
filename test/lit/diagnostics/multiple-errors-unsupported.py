# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
class A:
    pass

f = lambda x: x

def g():
    yield 1
# CHECK:      {{.*}}multiple-errors-unsupported.py:[[@LINE-7]]:1: error: class definitions are not supported by agc
# CHECK-NEXT: class A:
# CHECK-NEXT: ^~~~~~~~
# CHECK-NEXT: {{.*}}multiple-errors-unsupported.py:[[@LINE-7]]:5: error: lambda expressions are not supported by agc
# CHECK-NEXT: f = lambda x: x
# CHECK-NEXT:     ^~~~~~~~~~~
# CHECK-NEXT: {{.*}}multiple-errors-unsupported.py:[[@LINE-7]]:5: error: generators ('yield') are not supported by agc
# CHECK-NEXT:     yield 1
# CHECK-NEXT:     ^~~~~~~
