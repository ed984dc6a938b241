# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
@my_decorator
def compute(x):
    return x
# CHECK:      {{.*}}unsupported-decorator-bare-name.py:[[@LINE-3]]:2: error: decorators other than '@tf.function' are not supported by agc
# CHECK-NEXT: @my_decorator
# CHECK-NEXT:  ^~~~~~~~~~~~
# CHECK-NEXT: {{.*}}unsupported-decorator-bare-name.py:[[@LINE-5]]:5: note: on the definition of 'compute'
# CHECK-NEXT: def compute(x):
# CHECK-NEXT:     ^~~~~~~
