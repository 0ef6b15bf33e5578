// Shard files of a summary index (`rollout-lens index RUN --shard i/n`): writing one, reading a set
// as one index, and seeding the index from a set.
export { ShardError, shardFileName } from "./file";
export { seedIndexFromShards, shardDirFor } from "./import";
export { mergeShards, readShardDir } from "./set";
export { codeVersionAt, indexShard } from "./write";
