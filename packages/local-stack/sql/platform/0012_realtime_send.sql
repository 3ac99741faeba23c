-- Broadcast from the database, as Supabase Realtime's migrations define it:
-- realtime.send / send_binary / broadcast_changes only insert a row into
-- realtime.messages (extension 'broadcast'), as the calling role, so its INSERT
-- policies apply; a refused or failed insert is a WARNING and sends nothing.
-- Realtime reads those rows from a logical replication slot; PGlite has none, so
-- here an AFTER INSERT trigger notifies `engram_realtime_messages` with the row's
-- key and the server reads the row and fans it out (src/realtime/messages.ts).
-- NOTIFY is delivered on commit only, so rolled-back inserts (the private-channel
-- permission checks) send nothing.

create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();
    -- Receivers see the message id inside the payload unless the payload has its own.
    if payload ? 'id' then
      final_payload := payload;
    else
      final_payload := jsonb_set(payload, '{id}', to_jsonb(generated_id));
    end if;
    -- Policies on realtime.messages name the topic through realtime.topic().
    execute format('set local realtime.topic to %L', topic);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

create or replace function realtime.send_binary(payload bytea, event text, topic text, private boolean default true)
returns void
language plpgsql as $$
declare
  generated_id uuid;
begin
  begin
    generated_id := gen_random_uuid();
    execute format('set local realtime.topic to %L', topic);
    insert into realtime.messages (id, binary_payload, event, topic, private, extension)
    values (generated_id, payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text,
  new record, old record, level text default 'ROW')
returns void
language plpgsql as $$
declare
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation in ('INSERT', 'UPDATE', 'DELETE') then
    row_data := jsonb_build_object(
      'old_record', old, 'record', new, 'operation', operation, 'table', table_name, 'schema', table_schema);
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type: %', operation;
  end if;
exception
  when others then
    raise exception 'Failed to process the row: %', sqlerrm;
end;
$$;

alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;
alter function realtime.send_binary(bytea, text, text, boolean) owner to supabase_realtime_admin;
alter function realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  owner to supabase_realtime_admin;

-- As on the platform: granted to postgres and dashboard_user, and executable by every
-- role through PUBLIC's default grant (realtime.messages' policies decide what is sent).
do $$
begin
  execute format('grant execute on function realtime.send(jsonb, text, text, boolean), '
    'realtime.send_binary(bytea, text, text, boolean) to %I, dashboard_user', _local_stack.migration_role());
end
$$;

-- Only the key and routing go through NOTIFY (its payload is limited to 8000 bytes);
-- the server reads the message itself. Rows without an event carry nothing to send.
create or replace function realtime.engram_notify_message() returns trigger
language plpgsql as $$
begin
  if new.extension = 'broadcast' and new.event is not null then
    perform pg_notify('engram_realtime_messages', json_build_object(
      'id', new.id, 'inserted_at', new.inserted_at, 'topic', new.topic, 'private', coalesce(new.private, false))::text);
  end if;
  return null;
end;
$$;

drop trigger if exists engram_realtime_messages on realtime.messages;
create trigger engram_realtime_messages after insert on realtime.messages
  for each row execute function realtime.engram_notify_message();

-- Replay reads a topic's recent private broadcasts newest first, as Realtime's index does.
create index if not exists messages_inserted_at_topic_index on realtime.messages (inserted_at desc, topic)
  where extension = 'broadcast' and private is true;
