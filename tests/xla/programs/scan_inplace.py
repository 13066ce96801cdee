"""lax.scan with in-place updates: a carried buffer written one row per step
with dynamic_update_slice, a stacked output, a reversed scan and an RNN
whose weights are donated."""
from _common import *

N, D = 8, 16


def scan_write_rows(buf, xs):
    def body(carry, x):
        b, i = carry
        b = jax.lax.dynamic_update_slice(b, (x * 2.0)[None, :], (i, 0))
        return (b, i + 1), jnp.sum(x)
    (buf, _), sums = jax.lax.scan(body, (buf, 0), xs)
    return buf, sums


def scan_reverse_cumsum(xs):
    def body(c, x):
        c = c + x
        return c, c
    return jax.lax.scan(body, jnp.zeros_like(xs[0]), xs, reverse=True)


def rnn_step(w, h0, xs):
    def cell(h, x):
        h = jnp.tanh(h @ w + x)
        return h, h
    def loss(w):
        _, hs = jax.lax.scan(cell, h0, xs)
        return jnp.sum(hs ** 2)
    return w - 0.01 * jax.grad(loss)(w)


def compile_all():
    compile_jit(scan_write_rows, spec(N, D), spec(N, D), donate_argnums=(0,))
    compile_jit(scan_reverse_cumsum, spec(N, D))
    compile_jit(rnn_step, spec(D, D), spec(2, D), spec(N, 2, D), donate_argnums=(0,))
