"""Convolutions: a 2-D conv with its input and kernel gradients, strided and
dilated, grouped (depthwise), transposed and 1-D convolutions, and a max
pool whose gradient is a select-and-scatter."""
from _common import *


def conv(x, k, **kw):
    return jax.lax.conv_general_dilated(x, k, window_strides=kw.get("strides", (1, 1)),
                                        padding=kw.get("padding", "SAME"),
                                        rhs_dilation=kw.get("dilation", (1, 1)),
                                        feature_group_count=kw.get("groups", 1),
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def conv_train(x, k):
    def loss(x, k):
        return jnp.sum(jax.nn.relu(conv(x, k)) ** 2)
    gx, gk = jax.grad(loss, argnums=(0, 1))(x, k)
    return gx, k - 0.01 * gk


def conv_variants(x, k, kd):
    a = conv(x, k, strides=(2, 2), padding="VALID")
    b = conv(x, k, dilation=(2, 2))
    c = conv(x, kd, groups=x.shape[-1])
    d = jax.lax.conv_transpose(x, k, strides=(2, 2), padding="SAME",
                               dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return a, b, c, d


def conv1d(x, k):
    return jax.lax.conv_general_dilated(x, k, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC"))


def maxpool_grad(x):
    def pool(x):
        return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    return jax.grad(lambda x: jnp.sum(pool(x) ** 2))(x)


def compile_all():
    compile_jit(conv_train, spec(2, 8, 8, 4), spec(3, 3, 4, 8), donate_argnums=(1,))
    compile_jit(conv_variants, spec(2, 8, 8, 4), spec(3, 3, 4, 4), spec(3, 3, 1, 4))
    compile_jit(conv1d, spec(2, 16, 4), spec(5, 4, 6))
    compile_jit(maxpool_grad, spec(2, 8, 8, 3))
