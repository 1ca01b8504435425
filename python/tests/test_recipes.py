"""The recipes of docs/guide.md that count across machines, run on this one: Dask's
LocalCluster mapping `ExactCover.count_shard` over the shards, and the Slurm job array's
script, each merged to the exact count."""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import time

import pytest

import quadrille as q

RECIPES = pathlib.Path(__file__).resolve().parents[2] / "docs" / "recipes"


def recipe(name):
    spec = importlib.util.spec_from_file_location(name, RECIPES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_queens_recipe_writes_the_queens_problem():
    text = recipe("queens_dlx").queens_dlx(8)
    assert q.ExactCover.from_dlx(text).count() == 92


def test_a_count_on_a_dask_cluster_merges_to_the_exact_count(tmp_path):
    pytest.importorskip("dask.distributed", reason="pip install 'dask[distributed]'")
    problem = tmp_path / "queens9.dlx"
    problem.write_text(recipe("queens_dlx").queens_dlx(9))
    merged = recipe("dask_count").main(str(problem), 16)
    assert merged["complete"] and merged["solutions"] == 352
    assert merged["present"] == 16 and merged["missing"] == []
    # Two shards of a split of 16 are a partial merge, never taken for the total.
    from dask.distributed import Client, LocalCluster

    text = problem.read_text()
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False) as cluster:
        with Client(cluster) as client:
            futures = client.map(recipe("dask_count").count_shard, [text] * 2, [1, 2], [16] * 2)
            partial = q.merge(client.gather(futures))
    assert not partial["complete"] and partial["missing"] == list(range(3, 17))


def run_slurm_recipe(tmp_path, binary, env):
    problem = tmp_path / "queens8.dlx"
    problem.write_text(recipe("queens_dlx").queens_dlx(8))
    env = dict(env, OUT=str(tmp_path / "shards"))
    run = subprocess.run(
        ["bash", str(RECIPES / "slurm_count.sh"), str(problem), "8", binary],
        env=env, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    return run, tmp_path / "shards" / "merged.txt"


def quadrille_bin():
    binary = os.environ.get("QUADRILLE_BIN")
    if not binary:
        pytest.skip("no quadrille binary: set QUADRILLE_BIN")
    return binary


def test_the_slurm_recipe_submits_an_array_and_a_merge_that_waits_for_it(tmp_path):
    """`sbatch` played by a stand-in that runs each array task, then the merge, in order, so
    that what the script asks of Slurm is what is checked, on any machine."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "sbatch").write_text(STAND_IN)
    (fake / "sbatch").chmod(0o755)
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}")
    _, merged = run_slurm_recipe(tmp_path, quadrille_bin(), env)
    assert merged.read_text().strip() == "92"


def test_the_slurm_recipe_on_a_running_controller(tmp_path):
    """The same on Slurm itself, where a controller takes jobs (skipped, and said so, where
    none runs)."""
    binary = quadrille_bin()
    if shutil.which("sbatch") is None or subprocess.run(["squeue"], capture_output=True).returncode:
        pytest.skip("no Slurm controller here (sbatch/squeue): the stand-in test ran the script")
    run, merged = run_slurm_recipe(tmp_path, binary, dict(os.environ))
    merge_job = run.stdout.split()[-1]
    while subprocess.run(["squeue", "-h", "-j", merge_job], capture_output=True, text=True).stdout.strip():
        time.sleep(1)
    assert merged.read_text().strip() == "92"


STAND_IN = r"""#!/usr/bin/env python3
import os, re, subprocess, sys
args = sys.argv[1:]
opts = dict(a[2:].split("=", 1) for a in args if a.startswith("--") and "=" in a)
tasks = [None]
if "array" in opts:
    first, last = map(int, opts["array"].split("-"))
    tasks = range(first, last + 1)
for task in tasks:
    env = dict(os.environ)
    out = opts["output"]
    if task is not None:
        env["SLURM_ARRAY_TASK_ID"] = str(task)
        out = out.replace("%a", str(task))
    with open(out, "w") as f:
        subprocess.run(["bash", "-c", opts["wrap"]], env=env, stdout=f, check=True)
print(os.getpid())
"""
