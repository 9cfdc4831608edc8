-- wrk script: asks the paths listed in the file named by its first argument (one per line, e.g. the 20,000
-- prefixes of scripts/suggest-prefixes.py) in turn, each thread from its own place in the list.
local threads = 0
function setup(thread)
    thread:set("id", threads)
    threads = threads + 1
end
local requests, i = {}, 0
function init(args)
    for path in io.lines(args[1]) do requests[#requests + 1] = wrk.format("GET", path) end
    -- Each thread starts at its own place in the list, so two threads do not ask the same question together.
    i = (id or 0) * 10007 % #requests
end
function request()
    i = i % #requests + 1
    return requests[i]
end
