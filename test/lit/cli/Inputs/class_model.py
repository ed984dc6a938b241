import tensorflow as tf


class Scaler(tf.Module):
    def __init__(self, rate):
        super().__init__()
        self.rate = tf.Variable(rate)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        while tf.reduce_sum(x) > 1.0:
            x = x / self.rate
        return x

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def grow(self, by):
        if by > 0:
            self.rate.assign_add(by)
        return self.rate.read_value()


def untraced(x):
    return x * 2


model = Scaler(2.0)
