-- What a personal access token may be used for: `read`, the agent surfaces (llms files,
-- search, MCP, Markdown), as every token so far; `admin`, the administration API only, for
-- an administrator's automation (made by administrators alone; it stops working when its
-- reader stops being one, since each use checks the reader's groups as they are then).
alter table access_tokens add column scope text not null default 'read' check (scope in ('read', 'admin'));
