"""The benchmark workloads that are natural in NumPy (whole-array code, with a Python loop
where the program has one). The scalar-loop programs are not: in NumPy they would be
plain Python, so they are left out."""
import numpy as np


def double(a):
    return a + a


def tanh_loop(x):
    while x.sum() > 1:
        x = np.tanh(x)
    return x


def rnn(xs, wx, wh, b):
    h = np.zeros((1, 32), np.float32)
    states = np.empty((xs.shape[0], 32), np.float32)
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t:t + 1] @ wx + h @ wh + b)
        states[t] = h[0]
    return states


def newton_sqrt(a):
    x = a
    for _ in range(50):
        x = np.float32(0.5) * (x + a / x)
    return x


def elementwise_chain(x):
    return np.maximum(x * np.float32(2) + np.float32(1), np.float32(0)) * np.float32(0.5) + x


def binary_chain(x, y):
    return (x * y + x - y) * np.float32(0.5)


def reduce_total(x):
    return x.sum()


def matmul(a, b):
    return a @ b


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# The dynamic-shape variants of programs.py are the same programs here (shapes are the
# inputs').
elementwise_chain_dyn = elementwise_chain
binary_chain_dyn = binary_chain
reduce_total_dyn = reduce_total
matmul_dyn = matmul
matmul_odd_dyn = matmul
softmax_dyn = softmax
