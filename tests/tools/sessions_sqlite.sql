-- sessions_sqlite.sql: WebSphere's SESSIONS table in a SQLite file at 4K
-- pages, for tests that advise on a SQLite database (its rows are each
-- test's own). Read by tests/cli/test_report_facts.sh.
PRAGMA page_size = 4096;
CREATE TABLE SESSIONS (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), LISTENERCNT smallint, LASTACCESS bigint,
  CREATIONTIME bigint, MAXINACTIVETIME integer, USERNAME varchar(256),
  SMALL BLOB, MEDIUM BLOB, LARGE BLOB);
