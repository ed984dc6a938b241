# RUN: %expect_exit 1 %agc --emit=analysis %s --signature 'f(x: float32[None], n: int32[])' 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function
def f(x, n):
    if n > 0:
        y = x * 2.0
    return y
# CHECK:      {{.*}}tracing-if-undefined-no-else.py:[[@LINE-3]]:5: error: 'y' must also be initialized in the else branch
# CHECK-NEXT:     if n > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-if-undefined-no-else.py:[[@LINE-5]]:9: note: 'y' is assigned here, in the main branch
# CHECK-NEXT:         y = x * 2.0
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}tracing-if-undefined-no-else.py:[[@LINE-9]]:5: note: this staged if (tf.cond) has no else branch; assign 'y' before the if, or in an else branch, so that both branches produce it
# CHECK-NEXT:     if n > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
