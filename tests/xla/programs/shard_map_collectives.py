"""shard_map over 8 host devices: psum, all_gather, ppermute (a ring),
psum_scatter, all_to_all and axis_index, on 1-D and 2-D meshes."""
from _common import *
from functools import partial


def collectives_1d(x):
    mesh = mesh_8()

    @partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=(P(), P("x"), P("x"), P("x")))
    def f(b):
        total = jax.lax.psum(jnp.sum(b), "x")
        gathered = jax.lax.all_gather(b, "x", tiled=True)
        ring = jax.lax.ppermute(b, "x", [(i, (i + 1) % 8) for i in range(8)])
        scattered = jax.lax.psum_scatter(gathered, "x", tiled=True)
        return total, ring + jax.lax.axis_index("x"), scattered, gathered[: b.shape[0]]
    return f(x)


def collectives_2d(x):
    mesh = mesh_4x2()

    @partial(jax.shard_map, mesh=mesh, in_specs=P("data", "model"), out_specs=P("data", "model"),
             check_vma=False)
    def f(b):
        b = jax.lax.psum(b, "model") / 2
        b = jax.lax.all_to_all(b, "data", 0, 0, tiled=True)
        return jax.lax.pmax(b, "data") + jax.lax.pmean(b * 2, ("data", "model"))
    return f(x)


def compile_all():
    compile_jit(collectives_1d, spec(64))
    compile_jit(collectives_2d, spec(16, 8))
