"""A count split into shards on a Dask cluster, then merged: each task counts one shard of the
same split (`ExactCover.count_shard`), wherever it runs, and `quadrille.merge` checks the
records (one problem, one split, every shard once, each checksum) and adds them up.

    python docs/recipes/dask_count.py queens15.dlx 64 [SCHEDULER]

With no scheduler address, a LocalCluster of one single-threaded worker per core."""
import sys

import quadrille


def count_shard(text, shard, shards):
    """One shard's record; the problem travels as its dlx text, as a worker reads it."""
    return quadrille.ExactCover.from_dlx(text).count_shard(shard, shards)


def count_on(client, text, shards):
    """The merged count of `text` in `shards` shards, counted by `client`'s workers."""
    numbers = range(1, shards + 1)
    futures = client.map(count_shard, [text] * shards, numbers, [shards] * shards, pure=False)
    return quadrille.merge(client.gather(futures))


def main(path, shards, scheduler=None):
    from dask.distributed import Client, LocalCluster

    text = open(path).read()
    if scheduler:
        with Client(scheduler) as client:
            return count_on(client, text, shards)
    with LocalCluster(threads_per_worker=1, processes=True) as cluster, Client(cluster) as client:
        return count_on(client, text, shards)


if __name__ == "__main__":
    merged = main(sys.argv[1], int(sys.argv[2]), *sys.argv[3:4])
    print(merged["solutions"], "complete" if merged["complete"] else f"partial: {merged}")
    sys.exit(0 if merged["complete"] else 1)
