"""A float32 transformer block's training step: embeddings, pre-norm causal
multi-head attention, a GELU MLP, cross-entropy over a tied output
projection, and an Adam update with the parameters and optimizer state
donated (the memory oracle's train step, issue 51)."""
from _common import *

B, T, D, H, V = 2, 16, 32, 4, 64


def layer_norm(x, g):
    m = jnp.mean(x, -1, keepdims=True)
    v = jnp.mean((x - m) ** 2, -1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5) * g


def forward(params, tokens):
    emb, g1, wqkv, wo, g2, w1, w2 = params
    x = emb[tokens]
    h = layer_norm(x, g1)
    q, k, v = jnp.split(h @ wqkv, 3, axis=-1)
    q, k, v = (a.reshape(B, T, H, D // H) for a in (q, k, v))
    s = jnp.einsum("bthd,bshd->bhts", q, k) / jnp.sqrt(D // H)
    s = jnp.where(jnp.tril(jnp.ones((T, T), bool)), s, -1e9)
    o = jnp.einsum("bhts,bshd->bthd", jax.nn.softmax(s, -1), v).reshape(B, T, D)
    x = x + o @ wo
    x = x + jax.nn.gelu(layer_norm(x, g2) @ w1) @ w2
    return x @ emb.T


def loss(params, tokens, targets):
    logp = jax.nn.log_softmax(forward(params, tokens))
    return -jnp.mean(jnp.take_along_axis(logp, targets[..., None], -1))


def transformer_adam_step(params, m, v, tokens, targets):
    l, g = jax.value_and_grad(loss)(params, tokens, targets)
    m = jax.tree.map(lambda a, b: 0.9 * a + 0.1 * b, m, g)
    v = jax.tree.map(lambda a, b: 0.999 * a + 0.001 * b * b, v, g)
    params = jax.tree.map(lambda p, a, b: p - 1e-3 * a / (jnp.sqrt(b) + 1e-8), params, m, v)
    return params, m, v, l


def compile_all():
    shapes = [(V, D), (D,), (D, 3 * D), (D, D), (D,), (D, 4 * D), (4 * D, D)]
    params = tuple(spec(*s) for s in shapes)
    compile_jit(transformer_adam_step, params, params, params, ispec(B, T), ispec(B, T),
                donate_argnums=(0, 1, 2))
