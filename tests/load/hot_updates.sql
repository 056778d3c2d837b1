-- HOT updates of application rows at a table's fill factor: 2,000 journeys, each
-- row inserted and then saved 12 times in its own transactions while the next 50 journeys start,
-- as applications are. Rows of 1.2 kB in a table with a primary key and two dashboard-like
-- indexes. Prints the fill factor, updates, HOT updates, their share and the table's size.
-- Usage: psql "$DATABASE_URL" -v ff=70 -f tests/load/hot_updates.sql   (drops and makes hot_t)
drop table if exists hot_t;
create table hot_t (id int primary key, agent int, created timestamptz default now(), name text, doc jsonb, updated timestamptz) with (fillfactor = :ff);
create index on hot_t (agent, created, id) include (name);
create index on hot_t (agent, name, id);
-- 2000 journeys, 50 at a time: each inserted, then saved 12 times, interleaved with the others.
do $$
declare j int; s int; d0 jsonb := (select jsonb_build_object('census', repeat('x', 1100)));
begin
  for j in 0..1999 loop
    insert into hot_t (id, agent, name, doc) values (j, j % 7, 'n' || j, d0);
    if j >= 50 then
      for s in 1..12 loop
        update hot_t set doc = hot_t.doc || jsonb_build_object('s', j), updated = now() where id = j - 1 - ((s * 4) % 50);
      end loop;
    end if;
    commit;
  end loop;
end $$;
-- Table counters reach the statistics when the backend is idle (up to 10 s).
select pg_sleep(11);
select :ff as fillfactor, n_tup_upd, n_tup_hot_upd, round(100.0 * n_tup_hot_upd / n_tup_upd) as hot_percent,
       pg_size_pretty(pg_table_size('hot_t')) as size
  from pg_stat_user_tables where relname = 'hot_t';
drop table hot_t;
