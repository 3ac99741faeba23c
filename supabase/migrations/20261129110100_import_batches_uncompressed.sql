-- Staged batches are read once, by finish_import, and deleted: compressing
-- each (up to 4 MiB of JSON) on the way in and out costs more than the disk
-- it saves for the minutes they exist.
alter table private.import_batches alter column payload set storage external;
