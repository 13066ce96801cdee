"""A mix of other ops: random numbers (threefry), argmax, cumulative sums
(reduce-window), dynamic slices, pads, concatenation, iota, bitcast-convert,
integer and low-precision types, and a dot_general with batch dimensions."""
from _common import *


def misc(key, x, i):
    r = jax.random.normal(key, x.shape)
    am = jnp.argmax(x + r, axis=-1)
    cs = jnp.cumsum(x, axis=0)
    ds = jax.lax.dynamic_slice(x, (i, 0), (2, x.shape[1]))
    pd = jnp.pad(x, ((1, 2), (0, 1)), mode="reflect")
    cc = jnp.concatenate([x, x[::-1]], axis=0)
    bc = jax.lax.bitcast_convert_type(x, jnp.int32)
    lo = x.astype(jnp.float8_e4m3fn).astype(jnp.float16)
    io = jnp.arange(x.shape[0], dtype=jnp.uint8)
    return am, cs, ds, pd, cc, bc, lo, io


def batched_dot(a, b):
    return jax.lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))),
                               preferred_element_type=jnp.float32)


def compile_all():
    compile_jit(misc, jax.ShapeDtypeStruct((2,), jnp.uint32), spec(8, 6), ispec())
    compile_jit(batched_dot, spec(3, 4, 5, dtype=jnp.bfloat16), spec(3, 5, 2, dtype=jnp.bfloat16))
