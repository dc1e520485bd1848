-- Replays prepared request bodies (or bearer tokens), one per request, each meant to be used once.
-- Lines are split between wrk threads. When a thread runs out it starts over and counts the
-- repeats, which done() reports: a run with repeats needs more prepared items (or a shorter -d).
-- Environment: REPLAY_FILE (one item per line), REPLAY_MODE ("body" or "bearer"), REPLAY_PATH,
-- REPLAY_THREADS (the wrk -t value).
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
  repeats = 0
  mode = os.getenv("REPLAY_MODE")
  path = os.getenv("REPLAY_PATH")
end

function request()
  position = position + 1
  if position > #items then
    position = 1
    wrapped = true
  end
  if wrapped then repeats = repeats + 1 end
  if mode == "bearer" then
    return wrk.format("GET", path, { ["Authorization"] = "Bearer " .. items[position] })
  end
  return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, items[position])
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("repeats") end
  io.write(string.format("repeated items: %d\n", total))
end
