// The rest of MLflow 3.5's SQLite schema (alembic head bf29a5ff90ea): the model registry, traces
// and their assessments and spans, logged models, evaluation datasets, scorers, webhooks and jobs.
// Nothing here is read; fixtures create it so a test database has every table MLflow's has. Same
// sources as ./ddl-tracking (tests/db/schemas/sqlite.sql, indexes from the migrations).

export const OTHER_DDL: readonly string[] = [
  `CREATE TABLE registered_models (
  name VARCHAR(256) NOT NULL,
  creation_time BIGINT,
  last_updated_time BIGINT,
  description VARCHAR(5000),
  CONSTRAINT registered_model_pk PRIMARY KEY (name),
  UNIQUE (name)
)`,
  `CREATE TABLE model_versions (
  name VARCHAR(256) NOT NULL, version INTEGER NOT NULL, creation_time BIGINT,
  last_updated_time BIGINT, description VARCHAR(5000), user_id VARCHAR(256),
  current_stage VARCHAR(20), source VARCHAR(500), run_id VARCHAR(32), status VARCHAR(20),
  status_message VARCHAR(500), run_link VARCHAR(500), storage_location VARCHAR(500),
  CONSTRAINT model_version_pk PRIMARY KEY (name, version),
  FOREIGN KEY(name) REFERENCES registered_models (name) ON UPDATE CASCADE
)`,
  `CREATE TABLE registered_model_tags (
  key VARCHAR(250) NOT NULL, value VARCHAR(5000), name VARCHAR(256) NOT NULL,
  CONSTRAINT registered_model_tag_pk PRIMARY KEY (key, name),
  FOREIGN KEY(name) REFERENCES registered_models (name) ON UPDATE CASCADE
)`,
  `CREATE TABLE model_version_tags (
  key VARCHAR(250) NOT NULL, value TEXT, name VARCHAR(256) NOT NULL, version INTEGER NOT NULL,
  CONSTRAINT model_version_tag_pk PRIMARY KEY (key, name, version),
  FOREIGN KEY(name, version) REFERENCES model_versions (name, version) ON UPDATE CASCADE
)`,
  `CREATE TABLE registered_model_aliases (
  alias VARCHAR(256) NOT NULL, version INTEGER NOT NULL, name VARCHAR(256) NOT NULL,
  CONSTRAINT registered_model_alias_pk PRIMARY KEY (name, alias),
  CONSTRAINT registered_model_alias_name_fkey FOREIGN KEY(name)
    REFERENCES registered_models (name) ON DELETE CASCADE ON UPDATE CASCADE
)`,
  `CREATE TABLE trace_info (
  request_id VARCHAR(50) NOT NULL, experiment_id INTEGER NOT NULL, timestamp_ms BIGINT NOT NULL,
  execution_time_ms BIGINT, status VARCHAR(50) NOT NULL, client_request_id VARCHAR(50),
  request_preview VARCHAR(1000), response_preview VARCHAR(1000),
  CONSTRAINT trace_info_pk PRIMARY KEY (request_id),
  CONSTRAINT fk_trace_info_experiment_id FOREIGN KEY(experiment_id)
    REFERENCES experiments (experiment_id)
)`,
  `CREATE TABLE trace_tags (
  key VARCHAR(250) NOT NULL, value VARCHAR(8000), request_id VARCHAR(50) NOT NULL,
  CONSTRAINT trace_tag_pk PRIMARY KEY (key, request_id),
  CONSTRAINT fk_trace_tags_request_id FOREIGN KEY(request_id)
    REFERENCES trace_info (request_id) ON DELETE CASCADE
)`,
  `CREATE TABLE trace_request_metadata (
  key VARCHAR(250) NOT NULL, value VARCHAR(8000), request_id VARCHAR(50) NOT NULL,
  CONSTRAINT trace_request_metadata_pk PRIMARY KEY (key, request_id),
  CONSTRAINT fk_trace_request_metadata_request_id FOREIGN KEY(request_id)
    REFERENCES trace_info (request_id) ON DELETE CASCADE
)`,
  `CREATE TABLE assessments (
  assessment_id VARCHAR(50) NOT NULL, trace_id VARCHAR(50) NOT NULL, name VARCHAR(250) NOT NULL,
  assessment_type VARCHAR(20) NOT NULL, value TEXT NOT NULL, error TEXT,
  created_timestamp BIGINT NOT NULL, last_updated_timestamp BIGINT NOT NULL,
  source_type VARCHAR(50) NOT NULL, source_id VARCHAR(250), run_id VARCHAR(32),
  span_id VARCHAR(50), rationale TEXT, overrides VARCHAR(50), valid BOOLEAN NOT NULL,
  assessment_metadata TEXT,
  CONSTRAINT assessments_pk PRIMARY KEY (assessment_id),
  CONSTRAINT fk_assessments_trace_id FOREIGN KEY(trace_id)
    REFERENCES trace_info (request_id) ON DELETE CASCADE
)`,
  `CREATE TABLE spans (
  trace_id VARCHAR(50) NOT NULL, experiment_id INTEGER NOT NULL, span_id VARCHAR(50) NOT NULL,
  parent_span_id VARCHAR(50), name TEXT, type VARCHAR(500), status VARCHAR(50) NOT NULL,
  start_time_unix_nano BIGINT NOT NULL, end_time_unix_nano BIGINT,
  duration_ns BIGINT GENERATED ALWAYS AS (end_time_unix_nano - start_time_unix_nano) STORED,
  content TEXT NOT NULL,
  CONSTRAINT spans_pk PRIMARY KEY (trace_id, span_id),
  CONSTRAINT fk_spans_trace_id FOREIGN KEY(trace_id)
    REFERENCES trace_info (request_id) ON DELETE CASCADE,
  CONSTRAINT fk_spans_experiment_id FOREIGN KEY(experiment_id)
    REFERENCES experiments (experiment_id)
)`,
  `CREATE TABLE logged_models (
  model_id VARCHAR(36) NOT NULL, experiment_id INTEGER NOT NULL, name VARCHAR(500) NOT NULL,
  artifact_location VARCHAR(1000) NOT NULL, creation_timestamp_ms BIGINT NOT NULL,
  last_updated_timestamp_ms BIGINT NOT NULL, status INTEGER NOT NULL,
  lifecycle_stage VARCHAR(32), model_type VARCHAR(500), source_run_id VARCHAR(32),
  status_message VARCHAR(1000),
  CONSTRAINT logged_models_pk PRIMARY KEY (model_id),
  CONSTRAINT fk_logged_models_experiment_id FOREIGN KEY(experiment_id)
    REFERENCES experiments (experiment_id) ON DELETE CASCADE,
  CONSTRAINT logged_models_lifecycle_stage_check CHECK (lifecycle_stage IN ('active', 'deleted'))
)`,
  `CREATE TABLE logged_model_metrics (
  model_id VARCHAR(36) NOT NULL, metric_name VARCHAR(500) NOT NULL,
  metric_timestamp_ms BIGINT NOT NULL, metric_step BIGINT NOT NULL, metric_value FLOAT,
  experiment_id INTEGER NOT NULL, run_id VARCHAR(32) NOT NULL, dataset_uuid VARCHAR(36),
  dataset_name VARCHAR(500), dataset_digest VARCHAR(36),
  CONSTRAINT logged_model_metrics_pk
    PRIMARY KEY (model_id, metric_name, metric_timestamp_ms, metric_step, run_id),
  CONSTRAINT fk_logged_model_metrics_experiment_id FOREIGN KEY(experiment_id)
    REFERENCES experiments (experiment_id),
  CONSTRAINT fk_logged_model_metrics_model_id FOREIGN KEY(model_id)
    REFERENCES logged_models (model_id) ON DELETE CASCADE,
  CONSTRAINT fk_logged_model_metrics_run_id FOREIGN KEY(run_id)
    REFERENCES runs (run_uuid) ON DELETE CASCADE
)`,
  `CREATE TABLE logged_model_params (
  model_id VARCHAR(36) NOT NULL, experiment_id INTEGER NOT NULL,
  param_key VARCHAR(255) NOT NULL, param_value TEXT NOT NULL,
  CONSTRAINT logged_model_params_pk PRIMARY KEY (model_id, param_key),
  CONSTRAINT fk_logged_model_params_experiment_id FOREIGN KEY(experiment_id)
    REFERENCES experiments (experiment_id),
  CONSTRAINT fk_logged_model_params_model_id FOREIGN KEY(model_id)
    REFERENCES logged_models (model_id) ON DELETE CASCADE
)`,
  `CREATE TABLE logged_model_tags (
  model_id VARCHAR(36) NOT NULL, experiment_id INTEGER NOT NULL,
  tag_key VARCHAR(255) NOT NULL, tag_value TEXT NOT NULL,
  CONSTRAINT logged_model_tags_pk PRIMARY KEY (model_id, tag_key),
  CONSTRAINT fk_logged_model_tags_experiment_id FOREIGN KEY(experiment_id)
    REFERENCES experiments (experiment_id),
  CONSTRAINT fk_logged_model_tags_model_id FOREIGN KEY(model_id)
    REFERENCES logged_models (model_id) ON DELETE CASCADE
)`,
  `CREATE TABLE entity_associations (
  association_id VARCHAR(36) NOT NULL, source_type VARCHAR(36) NOT NULL,
  source_id VARCHAR(36) NOT NULL, destination_type VARCHAR(36) NOT NULL,
  destination_id VARCHAR(36) NOT NULL, created_time BIGINT,
  CONSTRAINT entity_associations_pk
    PRIMARY KEY (source_type, source_id, destination_type, destination_id)
)`,
  `CREATE TABLE evaluation_datasets (
  dataset_id VARCHAR(36) NOT NULL, name VARCHAR(255) NOT NULL, schema TEXT, profile TEXT,
  digest VARCHAR(64), created_time BIGINT, last_update_time BIGINT, created_by VARCHAR(255),
  last_updated_by VARCHAR(255),
  CONSTRAINT evaluation_datasets_pk PRIMARY KEY (dataset_id)
)`,
  `CREATE TABLE evaluation_dataset_records (
  dataset_record_id VARCHAR(36) NOT NULL, dataset_id VARCHAR(36) NOT NULL, inputs JSON NOT NULL,
  expectations JSON, tags JSON, source JSON, source_id VARCHAR(36), source_type VARCHAR(255),
  created_time BIGINT, last_update_time BIGINT, created_by VARCHAR(255),
  last_updated_by VARCHAR(255), input_hash VARCHAR(64) NOT NULL, outputs JSON,
  CONSTRAINT evaluation_dataset_records_pk PRIMARY KEY (dataset_record_id),
  CONSTRAINT fk_evaluation_dataset_records_dataset_id FOREIGN KEY(dataset_id)
    REFERENCES evaluation_datasets (dataset_id) ON DELETE CASCADE,
  CONSTRAINT unique_dataset_input UNIQUE (dataset_id, input_hash)
)`,
  `CREATE TABLE evaluation_dataset_tags (
  dataset_id VARCHAR(36) NOT NULL, key VARCHAR(255) NOT NULL, value VARCHAR(5000),
  CONSTRAINT evaluation_dataset_tags_pk PRIMARY KEY (dataset_id, key),
  CONSTRAINT fk_evaluation_dataset_tags_dataset_id FOREIGN KEY(dataset_id)
    REFERENCES evaluation_datasets (dataset_id) ON DELETE CASCADE
)`,
  `CREATE TABLE scorers (
  experiment_id INTEGER NOT NULL, scorer_name VARCHAR(256) NOT NULL,
  scorer_id VARCHAR(36) NOT NULL,
  CONSTRAINT scorer_pk PRIMARY KEY (scorer_id),
  CONSTRAINT fk_scorers_experiment_id FOREIGN KEY(experiment_id)
    REFERENCES experiments (experiment_id) ON DELETE CASCADE
)`,
  `CREATE TABLE scorer_versions (
  scorer_id VARCHAR(36) NOT NULL, scorer_version INTEGER NOT NULL,
  serialized_scorer TEXT NOT NULL, creation_time BIGINT,
  CONSTRAINT scorer_version_pk PRIMARY KEY (scorer_id, scorer_version),
  CONSTRAINT fk_scorer_versions_scorer_id FOREIGN KEY(scorer_id)
    REFERENCES scorers (scorer_id) ON DELETE CASCADE
)`,
  `CREATE TABLE webhooks (
  webhook_id VARCHAR(256) NOT NULL, name VARCHAR(256) NOT NULL, description VARCHAR(1000),
  url VARCHAR(500) NOT NULL, status VARCHAR(20) DEFAULT 'ACTIVE' NOT NULL,
  secret VARCHAR(1000), creation_timestamp BIGINT, last_updated_timestamp BIGINT,
  deleted_timestamp BIGINT,
  CONSTRAINT webhook_pk PRIMARY KEY (webhook_id)
)`,
  `CREATE TABLE webhook_events (
  webhook_id VARCHAR(256) NOT NULL, entity VARCHAR(50) NOT NULL, action VARCHAR(50) NOT NULL,
  CONSTRAINT webhook_event_pk PRIMARY KEY (webhook_id, entity, action),
  FOREIGN KEY(webhook_id) REFERENCES webhooks (webhook_id) ON DELETE CASCADE
)`,
  `CREATE TABLE jobs (
  id VARCHAR(36) NOT NULL, creation_time BIGINT NOT NULL,
  function_fullname VARCHAR(500) NOT NULL, params TEXT NOT NULL, timeout FLOAT,
  status INTEGER NOT NULL, result TEXT, retry_count INTEGER NOT NULL,
  last_update_time BIGINT NOT NULL,
  CONSTRAINT jobs_pk PRIMARY KEY (id)
)`,
  "CREATE INDEX index_trace_info_experiment_id_timestamp_ms ON trace_info (experiment_id, timestamp_ms)",
  "CREATE INDEX index_trace_tags_request_id ON trace_tags (request_id)",
  "CREATE INDEX index_trace_request_metadata_request_id ON trace_request_metadata (request_id)",
  "CREATE INDEX index_assessments_trace_id_created_timestamp ON assessments (trace_id, created_timestamp)",
  "CREATE INDEX index_assessments_run_id_created_timestamp ON assessments (run_id, created_timestamp)",
  "CREATE INDEX index_assessments_last_updated_timestamp ON assessments (last_updated_timestamp)",
  "CREATE INDEX index_assessments_assessment_type ON assessments (assessment_type)",
  "CREATE INDEX index_spans_experiment_id ON spans (experiment_id)",
  "CREATE INDEX index_spans_experiment_id_status_type ON spans (experiment_id, status, type)",
  "CREATE INDEX index_spans_experiment_id_type_status ON spans (experiment_id, type, status)",
  "CREATE INDEX index_spans_experiment_id_duration ON spans (experiment_id, duration_ns)",
  "CREATE INDEX index_logged_model_metrics_model_id ON logged_model_metrics (model_id)",
  "CREATE INDEX index_entity_associations_association_id ON entity_associations (association_id)",
  `CREATE INDEX index_entity_associations_reverse_lookup
  ON entity_associations (destination_type, destination_id, source_type, source_id)`,
  "CREATE INDEX index_evaluation_datasets_name ON evaluation_datasets (name)",
  "CREATE INDEX index_evaluation_datasets_created_time ON evaluation_datasets (created_time)",
  "CREATE INDEX index_evaluation_dataset_tags_dataset_id ON evaluation_dataset_tags (dataset_id)",
  `CREATE INDEX index_evaluation_dataset_records_dataset_id
  ON evaluation_dataset_records (dataset_id)`,
  `CREATE UNIQUE INDEX index_scorers_experiment_id_scorer_name
  ON scorers (experiment_id, scorer_name)`,
  "CREATE INDEX index_scorer_versions_scorer_id ON scorer_versions (scorer_id)",
  "CREATE INDEX idx_webhooks_status ON webhooks (status)",
  "CREATE INDEX idx_webhooks_name ON webhooks (name)",
  "CREATE INDEX idx_webhook_events_entity ON webhook_events (entity)",
  "CREATE INDEX idx_webhook_events_action ON webhook_events (action)",
  "CREATE INDEX idx_webhook_events_entity_action ON webhook_events (entity, action)",
  `CREATE INDEX index_jobs_function_status_creation_time
  ON jobs (function_fullname, status, creation_time)`,
];
