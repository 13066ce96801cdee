"""A 64-layer residual MLP written as lax.scan over stacked layer weights:
the forward pass, and a training step (gradient through the scan, SGD on
the donated stacked weights). The scan's loop carries the activations; its
gradient saves one per layer (the memory oracle's deep model, issue 51)."""
from _common import *

L, B, D = 64, 4, 32


def scan_forward(ws, bs, x):
    def layer(h, wb):
        w, b = wb
        return h + jnp.tanh(h @ w + b), None
    h, _ = jax.lax.scan(layer, x, (ws, bs))
    return h


def scan_train_step(ws, bs, x, y):
    def loss(ws, bs):
        return jnp.mean((scan_forward(ws, bs, x) - y) ** 2)
    l, (gw, gb) = jax.value_and_grad(loss, argnums=(0, 1))(ws, bs)
    return ws - 0.01 * gw, bs - 0.01 * gb, l


def compile_all():
    ws, bs = spec(L, D, D), spec(L, D)
    compile_jit(scan_forward, ws, bs, spec(B, D))
    compile_jit(scan_train_step, ws, bs, spec(B, D), spec(B, D), donate_argnums=(0, 1))
