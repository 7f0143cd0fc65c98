//! Finding and reading records: walk directories for `*.json` and `*.jsonl`,
//! validate each record, collect problems per file.
