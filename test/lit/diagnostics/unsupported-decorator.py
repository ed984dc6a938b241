# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
import functools

@functools.lru_cache
def f(x):
    return x
# CHECK:      {{.*}}unsupported-decorator.py:[[@LINE-3]]:2: error: decorators other than '@tf.function' are not supported by agc
# CHECK-NEXT: @functools.lru_cache
# CHECK-NEXT:  ^~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}unsupported-decorator.py:[[@LINE-5]]:5: note: on the definition of 'f'
# CHECK-NEXT: def f(x):
# CHECK-NEXT:     ^
