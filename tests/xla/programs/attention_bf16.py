"""A transformer block in bfloat16: layer norm, causal multi-head attention
with softmax, a GELU MLP, and its training step with donated weights."""
from _common import *

B, T, D, H = 2, 8, 32, 4


def layer_norm(x):
    m = jnp.mean(x, -1, keepdims=True)
    v = jnp.mean((x - m) ** 2, -1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5)


def block(params, x):
    wq, wk, wv, wo, w1, w2 = params
    h = layer_norm(x)
    q = (h @ wq).reshape(B, T, H, D // H)
    k = (h @ wk).reshape(B, T, H, D // H)
    v = (h @ wv).reshape(B, T, H, D // H)
    s = jnp.einsum("bthd,bshd->bhts", q, k) / jnp.sqrt(D // H).astype(x.dtype)
    mask = jnp.tril(jnp.ones((T, T), bool))
    s = jnp.where(mask, s, jnp.finfo(x.dtype).min)
    a = jax.nn.softmax(s.astype(jnp.float32), axis=-1).astype(x.dtype)
    o = jnp.einsum("bhts,bshd->bthd", a, v).reshape(B, T, D) @ wo
    x = x + o
    return x + jax.nn.gelu(layer_norm(x) @ w1) @ w2


def attn_train_step(params, x):
    g = jax.grad(lambda p: jnp.sum(block(p, x).astype(jnp.float32) ** 2))(params)
    return jax.tree.map(lambda p, d: p - (0.01 * d).astype(p.dtype), params, g)


def compile_all():
    bf = jnp.bfloat16
    params = tuple(spec(*s, dtype=bf) for s in [(D, D)] * 4 + [(D, 4 * D), (4 * D, D)])
    compile_jit(block, params, spec(B, T, D, dtype=bf))
    compile_jit(attn_train_step, params, spec(B, T, D, dtype=bf), donate_argnums=(0,))
