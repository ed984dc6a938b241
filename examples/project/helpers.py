# A helper module of the example project: model.py imports it. Editing it rebuilds
# model's object (the depfile agc writes lists it) and nothing else.
import tensorflow as tf


def damp(x, rate):
    """One step of the settling loop: shrink x towards zero."""
    return tf.tanh(x) * rate
