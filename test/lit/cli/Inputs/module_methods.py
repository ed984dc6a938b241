import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, units):
        super().__init__()
        self.w = tf.Variable([[1.0] * units] * 3)
        self.calls = tf.Variable(0)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        self.calls.assign_add(1)
        return tf.matmul(x, self.w)

    @tf.function
    def scaled(self, x, factor=2.0):
        return self(x) * factor


class Bigger(Dense):
    pass


model = Bigger(2)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def top(x):
    return model(x)
