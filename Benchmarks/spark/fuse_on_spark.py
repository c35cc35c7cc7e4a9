"""Fuses a multi-track NDJSON recording on Spark: `altimetry fuse` is each partition's `pipe` step.

Usage: fuse_on_spark.py ALTIMETRY INPUT.ndjson OUTPUT_DIR [--partitions N] [--master local[2]]
"""
import argparse
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def fuse_on_spark(spark, altimetry, input_path, output_dir, partitions):
    lines = (
        spark.read.text(input_path)
        .withColumn("order", F.monotonically_increasing_id())  # the input order, for rows with equal times
        .withColumn("track_id", F.get_json_object("value", "$.track_id"))
        .withColumn("t", F.get_json_object("value", "$.t").cast("double"))
    )
    # Every row of a track goes to the same partition; within a partition, track by track in time order.
    tracks = lines.repartition(partitions, "track_id").sortWithinPartitions("track_id", "t", "order")
    # Spark's own pipe (the JVM's PipedRDD, no Python in the data path): one `altimetry fuse` per partition, its
    # lines on standard input, its output lines the result; a non-zero exit fails the job.
    values = getattr(tracks.select("value")._jdf, "as")(spark._jvm.org.apache.spark.sql.Encoders.STRING())
    values.rdd().pipe(f"{altimetry} fuse - --format ndjson --jobs 1").saveAsTextFile(output_dir)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("altimetry")
    parser.add_argument("input")
    parser.add_argument("output_dir")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    spark = (
        SparkSession.builder.master(args.master)
        .appName("altimetry-fuse")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    start = time.monotonic()
    fuse_on_spark(spark, args.altimetry, args.input, args.output_dir, args.partitions)
    print(f"spark: {time.monotonic() - start:.1f} s ({args.master}, {args.partitions} partitions)")
    spark.stop()


if __name__ == "__main__":
    main()
