// MLflow's tracking tables as SQLite DDL: experiments, runs and what runs log (tags, params,
// metrics, latest_metrics, dataset inputs), and the alembic_version row, as MLflow 3.5 leaves a new
// database (alembic head bf29a5ff90ea, "add jobs table"). Facts, not code to run against a user's
// file: the reader (./schema) checks only the columns it reads; fixtures create it all.
//
// Columns, types and keys: mlflow/mlflow tests/db/schemas/sqlite.sql (the schema dump MLflow's
// test_schema.py keeps up to date); indexes, which that dump leaves out, from the migrations under
// mlflow/store/db_migrations/versions/ (bd07f7e963c5 create_index_on_run_uuid,
// 7f2a7d5fae7d add_datasets_inputs_input_tags_tables) as a real MLflow database names them.

/** The alembic revision MLflow 3.5 writes to `alembic_version`. */
export const MLFLOW_ALEMBIC_HEAD = "bf29a5ff90ea";

export const TRACKING_DDL: readonly string[] = [
  `CREATE TABLE alembic_version (
  version_num VARCHAR(32) NOT NULL,
  CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
)`,
  `CREATE TABLE experiments (
  experiment_id INTEGER NOT NULL,
  name VARCHAR(256) NOT NULL,
  artifact_location VARCHAR(256),
  lifecycle_stage VARCHAR(32),
  creation_time BIGINT,
  last_update_time BIGINT,
  CONSTRAINT experiment_pk PRIMARY KEY (experiment_id),
  UNIQUE (name),
  CONSTRAINT experiments_lifecycle_stage CHECK (lifecycle_stage IN ('active', 'deleted'))
)`,
  `CREATE TABLE experiment_tags (
  key VARCHAR(250) NOT NULL,
  value VARCHAR(5000),
  experiment_id INTEGER NOT NULL,
  CONSTRAINT experiment_tag_pk PRIMARY KEY (key, experiment_id),
  FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id)
)`,
  `CREATE TABLE runs (
  run_uuid VARCHAR(32) NOT NULL,
  name VARCHAR(250),
  source_type VARCHAR(20),
  source_name VARCHAR(500),
  entry_point_name VARCHAR(50),
  user_id VARCHAR(256),
  status VARCHAR(9),
  start_time BIGINT,
  end_time BIGINT,
  source_version VARCHAR(50),
  lifecycle_stage VARCHAR(20),
  artifact_uri VARCHAR(200),
  experiment_id INTEGER,
  deleted_time BIGINT,
  CONSTRAINT run_pk PRIMARY KEY (run_uuid),
  FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id),
  CONSTRAINT runs_lifecycle_stage CHECK (lifecycle_stage IN ('active', 'deleted')),
  CONSTRAINT source_type CHECK (source_type IN ('NOTEBOOK', 'JOB', 'LOCAL', 'UNKNOWN', 'PROJECT')),
  CHECK (status IN ('SCHEDULED', 'FAILED', 'FINISHED', 'RUNNING', 'KILLED'))
)`,
  `CREATE TABLE tags (
  key VARCHAR(250) NOT NULL,
  value VARCHAR(8000),
  run_uuid VARCHAR(32) NOT NULL,
  CONSTRAINT tag_pk PRIMARY KEY (key, run_uuid),
  FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid)
)`,
  `CREATE TABLE params (
  key VARCHAR(250) NOT NULL,
  value VARCHAR(8000) NOT NULL,
  run_uuid VARCHAR(32) NOT NULL,
  CONSTRAINT param_pk PRIMARY KEY (key, run_uuid),
  FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid)
)`,
  `CREATE TABLE metrics (
  key VARCHAR(250) NOT NULL,
  value FLOAT NOT NULL,
  timestamp BIGINT NOT NULL,
  run_uuid VARCHAR(32) NOT NULL,
  step BIGINT DEFAULT '0' NOT NULL,
  is_nan BOOLEAN DEFAULT '0' NOT NULL,
  CONSTRAINT metric_pk PRIMARY KEY (key, timestamp, step, run_uuid, value, is_nan),
  FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid),
  CHECK (is_nan IN (0, 1))
)`,
  `CREATE TABLE latest_metrics (
  key VARCHAR(250) NOT NULL,
  value FLOAT NOT NULL,
  timestamp BIGINT,
  step BIGINT NOT NULL,
  is_nan BOOLEAN NOT NULL,
  run_uuid VARCHAR(32) NOT NULL,
  CONSTRAINT latest_metric_pk PRIMARY KEY (key, run_uuid),
  FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid),
  CHECK (is_nan IN (0, 1))
)`,
  `CREATE TABLE datasets (
  dataset_uuid VARCHAR(36) NOT NULL,
  experiment_id INTEGER NOT NULL,
  name VARCHAR(500) NOT NULL,
  digest VARCHAR(36) NOT NULL,
  dataset_source_type VARCHAR(36) NOT NULL,
  dataset_source TEXT NOT NULL,
  dataset_schema TEXT,
  dataset_profile TEXT,
  CONSTRAINT dataset_pk PRIMARY KEY (experiment_id, name, digest),
  CONSTRAINT fk_datasets_experiment_id_experiments FOREIGN KEY(experiment_id)
    REFERENCES experiments (experiment_id) ON DELETE CASCADE
)`,
  `CREATE TABLE inputs (
  input_uuid VARCHAR(36) NOT NULL,
  source_type VARCHAR(36) NOT NULL,
  source_id VARCHAR(36) NOT NULL,
  destination_type VARCHAR(36) NOT NULL,
  destination_id VARCHAR(36) NOT NULL,
  step BIGINT DEFAULT '0' NOT NULL,
  CONSTRAINT inputs_pk PRIMARY KEY (source_type, source_id, destination_type, destination_id)
)`,
  `CREATE TABLE input_tags (
  input_uuid VARCHAR(36) NOT NULL,
  name VARCHAR(255) NOT NULL,
  value VARCHAR(500) NOT NULL,
  CONSTRAINT input_tags_pk PRIMARY KEY (input_uuid, name)
)`,
  "CREATE INDEX index_metrics_run_uuid ON metrics (run_uuid)",
  "CREATE INDEX index_latest_metrics_run_uuid ON latest_metrics (run_uuid)",
  "CREATE INDEX index_params_run_uuid ON params (run_uuid)",
  "CREATE INDEX index_tags_run_uuid ON tags (run_uuid)",
  "CREATE INDEX index_datasets_dataset_uuid ON datasets (dataset_uuid)",
  `CREATE INDEX index_datasets_experiment_id_dataset_source_type
  ON datasets (experiment_id, dataset_source_type)`,
  "CREATE INDEX index_inputs_input_uuid ON inputs (input_uuid)",
  `CREATE INDEX index_inputs_destination_type_destination_id_source_type
  ON inputs (destination_type, destination_id, source_type)`,
];
