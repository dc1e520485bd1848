-- Replays prepared request bodies (or bearer tokens), one per request, each used once.
-- Lines are split between wrk threads; a thread stops when its share is used up.
-- Environment: REPLAY_FILE (one item per line), REPLAY_MODE ("body" or "bearer"), REPLAY_PATH.
local threads = {}
local counter = 1

function setup(thread)
  thread:set("id", counter)
  table.insert(threads, thread)
  counter = counter + 1
end

function init(args)
  items = {}
  local index = 0
  for line in io.lines(os.getenv("REPLAY_FILE")) do
    if index % tonumber(os.getenv("REPLAY_THREADS")) == id - 1 then table.insert(items, line) end
    index = index + 1
  end
  position = 0
  mode = os.getenv("REPLAY_MODE")
  path = os.getenv("REPLAY_PATH")
end

function request()
  position = position + 1
  if position > #items then
    wrk.thread:stop()
    position = #items
  end
  if mode == "bearer" then
    return wrk.format("GET", path, { ["Authorization"] = "Bearer " .. items[position] })
  end
  return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, items[position])
end
