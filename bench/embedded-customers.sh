#!/usr/bin/env bash
# Prepares COUNT pre-authorised Embedded customers on a running server (Link sign-up and consent, the
# partner's OAuth token, KYC, a wallet and a card payment token, all through the API) and writes one line
# per customer to OUT: "access_token customer_id payment_token wallet". Used by bench/embedded.sh and
# bench/instructions.sh.
# Usage: bench/embedded-customers.sh BASE_URL PROJECT_JSON COUNT OUT
set -euo pipefail
base=$1
project_json=$2
count=$3
out=$4
sk=$(jq -r .stripeSecretKey "$project_json")
pk=$(jq -r .stripePublishableKey "$project_json")
client_id=$(jq -r .oauthClientId "$project_json")
sdk() { curl -sf -u "$pk:" "$base$1" "${@:2}"; }
backend() { curl -sf -u "$sk:" "$base$1" "${@:2}"; }
for i in $(seq 1 "$count"); do
    email="bench-$i@example.com"
    sdk /v1/consumers/accounts/sign_up -d email_address=$email -d phone_number=%2B1415555010$i -d country=US >/dev/null
    intent=$(backend /v1/link_auth_intent -d email=$email -d oauth_client_id=$client_id \
        -d oauth_scopes=kyc.status:read,crypto:ramp | jq -r .id)
    secret=$(sdk /v1/consumers/sessions/lookup -d link_auth_intent_id=$intent | jq -r .consumer_session.client_secret)
    cred="credentials[consumer_session_client_secret]=$secret"
    sdk /v1/consumers/sessions/start_verification -d "$cred" >/dev/null
    customer=$(sdk /v1/consumers/sessions/confirm_verification -d "$cred" -d code=000000 -d consent_granted=true \
        | jq -r .crypto_customer_id)
    access=$(backend /v1/link_auth_intent/$intent/tokens -d "" | jq -r .access_token)
    sdk /v1/crypto/internal/kyc_data_collection -d "$cred" -d first_name=Bench -d last_name=Verified \
        -d id_number=000000000 -d line1=address_full_match -d city=Austin -d state=TX -d zip=73301 -d country=US \
        -d 'dob[day]=1' -d 'dob[month]=1' -d 'dob[year]=1990' >/dev/null
    wallet=0x52908400098527886E0F7030069857D2E4169EE7
    sdk /v1/crypto/internal/wallet -d "$cred" -d wallet_address=$wallet -d network=base >/dev/null
    token=$(sdk /v1/crypto/internal/payment_token -d "$cred" -d payment_method=pm_card_visa \
        -d crypto_customer_id=$customer | jq -r .id)
    echo "$access $customer $token $wallet" >>"$out"
done
sleep 3 # the sandbox phone/KYC verification completes asynchronously
