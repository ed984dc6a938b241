# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# Datasets that read files or run Python generators when the graph runs are refused while
# compiling, saying why; so is a filter whose predicate prints (agc runs it on every
# element before the loop).
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int64)])
def from_generator(x):
    def gen():
        yield 1

    for v in tf.data.Dataset.from_generator(gen, output_types=tf.int64):
        x += v
    return x
# CHECK:      {{.*}}dataset-sources.py:[[@LINE-3]]:14: error: 'tf.data.Dataset.from_generator' runs a Python generator while the graph runs; agc's compiled code runs without Python: pass the data in as tensors


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int64)])
def from_files(x):
    for line in tf.data.TextLineDataset(["data.txt"]):
        x += 1
    return x
# CHECK:      {{.*}}dataset-sources.py:[[@LINE-3]]:17: error: 'tf.data.TextLineDataset' reads files while the graph runs; agc's compiled code reads no files: pass the data in as tensors


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int64)])
def filtered_with_print(x):
    def keep(v):
        tf.print(v)
        return v > 3

    for v in tf.data.Dataset.range(10).filter(keep):
        x += v
    return x
# CHECK:      {{.*}}dataset-sources.py:[[@LINE-3]]:14: error: Dataset.filter(): a predicate that prints or asserts is not supported by agc, which runs it on every element before the dataset is iterated (TensorFlow runs it as elements are consumed)


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int64)])
def first_bound(x):
    for v in tf.data.Dataset.range(3):
        last = v
    return last
# CHECK:      {{.*}}dataset-sources.py:[[@LINE-3]]:5: error: 'last' must be defined before the loop
