"""The benchmark workloads written by hand for JAX: jit, with lax.while_loop, lax.fori_loop
and lax.cond where programs.py has staged control flow. Same algorithms, same dtypes."""
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)  # collatz_total and gcd_total sum in int64


@jax.jit
def collatz_total(n):
    def outer(i, total):
        def body(state):
            k, t = state
            k = lax.cond(k % 2 == 0, lambda k: k // 2, lambda k: 3 * k + 1, k)
            return k, t + 1
        return lax.while_loop(lambda s: s[0] > 1, body, (i, total))[1]
    return lax.fori_loop(jnp.int64(1), n + 1, outer, jnp.int64(0))


@jax.jit
def count_primes(n):
    def outer(k, count):
        def body(state):
            d, prime = state
            return d + 1, jnp.where(k % d == 0, False, prime)
        _, prime = lax.while_loop(lambda s: (s[0] * s[0] <= k) & s[1], body,
                                  (jnp.int32(2), jnp.bool_(True)))
        return count + prime.astype(jnp.int32)
    return lax.fori_loop(jnp.int32(2), n, outer, jnp.int32(0))


@jax.jit
def gcd_total(a, b):
    def outer(i, total):
        def body(state):
            x, y = state
            return y, x % y
        x, _ = lax.while_loop(lambda s: s[1] != 0, body, (a[i], b[i]))
        return total + x.astype(jnp.int64)
    return lax.fori_loop(0, a.shape[0], outer, jnp.int64(0))


@jax.jit
def double(a):
    return a + a


@jax.jit
def tanh_loop(x):
    return lax.while_loop(lambda x: jnp.sum(x) > 1, jnp.tanh, x)


@jax.jit
def rnn(xs, wx, wh, b):
    def step(h, x):
        h = jnp.tanh(x[None, :] @ wx + h @ wh + b)
        return h, h[0]
    _, states = lax.scan(step, jnp.zeros((1, 32), jnp.float32), xs)
    return states


@jax.jit
def newton_sqrt(a):
    return lax.fori_loop(0, 50, lambda _, x: 0.5 * (x + a / x), a)


@jax.jit
def elementwise_chain(x):
    return jax.nn.relu(x * 2.0 + 1.0) * 0.5 + x


@jax.jit
def binary_chain(x, y):
    return (x * y + x - y) * 0.5


@jax.jit
def reduce_total(x):
    return jnp.sum(x)


@jax.jit
def matmul(a, b):
    return a @ b


@jax.jit
def softmax(x):
    return jax.nn.softmax(x, axis=-1)


# The dynamic-shape variants of programs.py are the same programs here (shapes are the
# inputs').
elementwise_chain_dyn = elementwise_chain
binary_chain_dyn = binary_chain
reduce_total_dyn = reduce_total
matmul_dyn = matmul
matmul_odd_dyn = matmul
softmax_dyn = softmax
