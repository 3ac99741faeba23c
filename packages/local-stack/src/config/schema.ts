/**
 * `supabase/config.toml` as the Supabase CLI defines it (pkg/config: the
 * toml tags of its config structs). Every key the CLI knows is accepted,
 * including the many the local stack does not act on; any other key is an
 * error, as the CLI decodes the file with UnmarshalExact. All keys are
 * optional here: defaults are applied when the file becomes a StackConfig.
 */
import { z } from "zod";
import { duration, flag, list, oneOf, port, section, size, tableOf, text, uint } from "./values.js";

const enabledOnly = () => section({ enabled: flag() });

const api = section({
  enabled: flag(),
  port: port(),
  schemas: list(),
  extra_search_path: list(),
  max_rows: uint(),
  auto_expose_new_tables: flag(),
  tls: section({ enabled: flag(), cert_path: text(), key_path: text() }),
  external_url: text(),
});

const db = section({
  port: port(),
  shadow_port: port(),
  major_version: uint(),
  root_key: text(),
  health_timeout: duration(),
  pooler: section({
    enabled: flag(),
    port: port(),
    pool_mode: oneOf(["transaction", "session"]),
    default_pool_size: uint(),
    max_client_conn: uint(),
  }),
  migrations: section({ enabled: flag(), schema_paths: list() }),
  seed: section({ enabled: flag(), sql_paths: list() }),
  settings: section({
    effective_cache_size: text(),
    logical_decoding_work_mem: text(),
    maintenance_work_mem: text(),
    max_connections: uint(),
    max_locks_per_transaction: uint(),
    max_parallel_maintenance_workers: uint(),
    max_parallel_workers: uint(),
    max_parallel_workers_per_gather: uint(),
    max_replication_slots: uint(),
    max_slot_wal_keep_size: text(),
    max_standby_archive_delay: text(),
    max_standby_streaming_delay: text(),
    max_wal_size: text(),
    max_wal_senders: uint(),
    max_worker_processes: uint(),
    session_replication_role: oneOf(["origin", "replica", "local"]),
    shared_buffers: text(),
    statement_timeout: text(),
    track_activity_query_size: text(),
    track_commit_timestamp: flag(),
    wal_keep_size: text(),
    wal_sender_timeout: text(),
    work_mem: text(),
  }),
  network_restrictions: section({ enabled: flag(), allowed_cidrs: list(), allowed_cidrs_v6: list() }),
  ssl_enforcement: enabledOnly(),
  vault: tableOf(text()),
});

const realtime = section({ enabled: flag(), ip_version: oneOf(["IPv6", "IPv4"]), max_header_length: uint() });

const studio = section({ enabled: flag(), port: port(), api_url: text(), openai_api_key: text() });

const inbucket = section({
  enabled: flag(),
  port: port(),
  smtp_port: port(),
  pop3_port: port(),
  admin_email: text(),
  sender_name: text(),
});

const storage = section({
  enabled: flag(),
  file_size_limit: size(),
  image_transformation: enabledOnly(),
  s3_protocol: enabledOnly(),
  buckets: tableOf(
    section({ public: flag(), file_size_limit: size(), allowed_mime_types: list(), objects_path: text() }),
  ),
  analytics: section({
    enabled: flag(),
    max_namespaces: uint(),
    max_tables: uint(),
    max_catalogs: uint(),
    buckets: tableOf(section({})),
  }),
  vector: section({ enabled: flag(), max_buckets: uint(), max_indexes: uint(), buckets: tableOf(section({})) }),
});

const hook = () => section({ enabled: flag(), uri: text(), secrets: text() });
const factor = () => section({ enroll_enabled: flag(), verify_enabled: flag() });
const emailTemplate = { subject: text(), content: text(), content_path: text() };
const twilio = () => section({ enabled: flag(), account_sid: text(), message_service_sid: text(), auth_token: text() });

const auth = section({
  enabled: flag(),
  site_url: text(),
  external_url: text(),
  additional_redirect_urls: list(),
  jwt_expiry: uint(),
  jwt_issuer: text(),
  enable_refresh_token_rotation: flag(),
  refresh_token_reuse_interval: uint(),
  enable_manual_linking: flag(),
  enable_signup: flag(),
  enable_anonymous_sign_ins: flag(),
  minimum_password_length: uint(),
  password_requirements: oneOf([
    "",
    "letters_digits",
    "lower_upper_letters_digits",
    "lower_upper_letters_digits_symbols",
  ]),
  signing_keys_path: text(),
  rate_limit: section({
    anonymous_users: uint(),
    token_refresh: uint(),
    sign_in_sign_ups: uint(),
    token_verifications: uint(),
    email_sent: uint(),
    sms_sent: uint(),
    web3: uint(),
  }),
  captcha: section({ enabled: flag(), provider: oneOf(["hcaptcha", "turnstile"]), secret: text() }),
  hook: section({
    mfa_verification_attempt: hook(),
    password_verification_attempt: hook(),
    custom_access_token: hook(),
    send_sms: hook(),
    send_email: hook(),
    before_user_created: hook(),
  }),
  mfa: section({
    totp: factor(),
    phone: section({
      enroll_enabled: flag(),
      verify_enabled: flag(),
      otp_length: uint(),
      template: text(),
      max_frequency: duration(),
    }),
    web_authn: factor(),
    max_enrolled_factors: uint(),
  }),
  sessions: section({ timebox: duration(), inactivity_timeout: duration() }),
  email: section({
    enable_signup: flag(),
    double_confirm_changes: flag(),
    enable_confirmations: flag(),
    secure_password_change: flag(),
    template: tableOf(section(emailTemplate)),
    notification: tableOf(section({ enabled: flag(), ...emailTemplate })),
    smtp: section({
      enabled: flag(),
      host: text(),
      port: port(),
      user: text(),
      pass: text(),
      admin_email: text(),
      sender_name: text(),
    }),
    max_frequency: duration(),
    otp_length: uint(),
    otp_expiry: uint(),
  }),
  sms: section({
    enable_signup: flag(),
    enable_confirmations: flag(),
    template: text(),
    twilio: twilio(),
    twilio_verify: twilio(),
    messagebird: section({ enabled: flag(), originator: text(), access_key: text() }),
    textlocal: section({ enabled: flag(), sender: text(), api_key: text() }),
    vonage: section({ enabled: flag(), from: text(), api_key: text(), api_secret: text() }),
    test_otp: tableOf(text()),
    max_frequency: duration(),
  }),
  external: tableOf(
    section({
      enabled: flag(),
      client_id: text(),
      secret: text(),
      url: text(),
      redirect_uri: text(),
      skip_nonce_check: flag(),
      email_optional: flag(),
    }),
  ),
  web3: section({ solana: enabledOnly(), ethereum: enabledOnly() }),
  passkey: enabledOnly(),
  webauthn: section({ rp_display_name: text(), rp_id: text(), rp_origins: list() }),
  oauth_server: section({ enabled: flag(), allow_dynamic_registration: flag(), authorization_url_path: text() }),
  publishable_key: text(),
  secret_key: text(),
  jwt_secret: text(),
  anon_key: text(),
  service_role_key: text(),
  third_party: section({
    firebase: section({ enabled: flag(), project_id: text() }),
    auth0: section({ enabled: flag(), tenant: text(), tenant_region: text() }),
    aws_cognito: section({ enabled: flag(), user_pool_id: text(), user_pool_region: text() }),
    clerk: section({ enabled: flag(), domain: text() }),
    workos: section({ enabled: flag(), issuer_url: text() }),
  }),
});

const edgeRuntime = section({
  enabled: flag(),
  policy: oneOf(["per_worker", "oneshot"]),
  inspector_port: port(),
  secrets: tableOf(text()),
  deno_version: uint(),
});

const functions = tableOf(
  section({ enabled: flag(), verify_jwt: flag(), import_map: text(), entrypoint: text(), static_files: list() }),
);

const analytics = section({
  enabled: flag(),
  port: port(),
  backend: oneOf(["postgres", "bigquery"]),
  gcp_project_id: text(),
  gcp_project_number: text(),
  gcp_jwt_path: text(),
  vector_port: port(),
});

const experimental = section({
  orioledb_version: text(),
  s3_host: text(),
  s3_region: text(),
  s3_access_key: text(),
  s3_secret_key: text(),
  webhooks: enabledOnly(),
  pgdelta: section({ enabled: flag(), declarative_schema_path: text(), format_options: text() }),
  inspect: section({
    rules: z
      .array(section({ query: text(), name: text(), pass: text(), fail: text() }).unwrap(), {
        error: "must be a list of tables",
      })
      .optional(),
  }),
});

const projectShape = {
  project_id: text(),
  api,
  db,
  realtime,
  studio,
  inbucket,
  storage,
  auth,
  edge_runtime: edgeRuntime,
  functions,
  analytics,
  experimental,
};

/** The whole file; `[remotes.<name>]` blocks override it for a linked branch, so they hold the same settings. */
export const configFile = section({ ...projectShape, remotes: tableOf(section(projectShape)) }).unwrap();

export type ConfigFile = z.infer<typeof configFile>;
