-- wrk script for bench/embedded.sh: each thread acts for one pre-authorised customer and alternates
-- POST /v1/crypto/onramp_sessions (create) with POST /v1/crypto/onramp_sessions/{id}/checkout for the
-- sessions it created. A pair counts when its checkout answers fulfillment_processing.
-- Environment: EMBEDDED_FIXTURES (lines "access_token customer_id payment_token wallet"), EMBEDDED_SK.
local threads = {}
local count = 0

function setup(thread)
    count = count + 1
    thread:set("index", count)
    table.insert(threads, thread)
end

function init(args)
    local lines = {}
    for line in io.lines(os.getenv("EMBEDDED_FIXTURES")) do table.insert(lines, line) end
    local access, customer, token, wallet = lines[((index - 1) % #lines) + 1]:match("(%S+) (%S+) (%S+) (%S+)")
    headers = {
        ["Authorization"] = "Bearer " .. os.getenv("EMBEDDED_SK"),
        ["Stripe-OAuth-Token"] = access,
        ["Content-Type"] = "application/x-www-form-urlencoded",
    }
    create = "ui_mode=headless&crypto_customer_id=" .. customer .. "&payment_token=" .. token
        .. "&source_amount=20.00&source_currency=usd&destination_currency=usdc&destination_network=base"
        .. "&wallet_address=" .. wallet
    pending = {}
    pairs_done = 0
    failures = 0
end

function request()
    if #pending > 0 then
        local id = table.remove(pending, 1)
        return wrk.format("POST", "/v1/crypto/onramp_sessions/" .. id .. "/checkout", headers, "")
    end
    return wrk.format("POST", "/v1/crypto/onramp_sessions", headers, create)
end

function response(status, response_headers, body)
    local id, state = body:match('"id":"(cos_%w+)".-"status":"([%w_]+)"')
    if state == "requires_payment" then
        table.insert(pending, id)
    elseif state == "fulfillment_processing" then
        pairs_done = pairs_done + 1
    else
        failures = failures + 1
    end
end

function done(summary, latency, requests)
    local total, failed = 0, 0
    for _, thread in ipairs(threads) do
        total = total + thread:get("pairs_done")
        failed = failed + thread:get("failures")
    end
    local seconds = summary.duration / 1e6
    io.write(string.format("PAIRS %d %.1f %d\n", total, total / seconds, failed))
end
