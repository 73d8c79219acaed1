#!/usr/bin/env bash
# Places a bank-transfer order through the JSON API with curl, end to end:
# register (if needed), sign in, make and upload a .docx, walk every step, pay.
# Needs BASE_URL, EMAIL and PASSWORD; prints the order's external id as its last line.
set -euo pipefail
: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:3000}"
: "${EMAIL:?set EMAIL}"
: "${PASSWORD:?set PASSWORD (8 characters or more)}"
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
JAR="$WORK/cookies"
J=(-sS -b "$JAR" -c "$JAR" -H 'content-type: application/json')

field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=process.argv[1].split(".").reduce((o,k)=>o==null?o:o[k],JSON.parse(s));if(v==null){console.error("missing "+process.argv[1]+" in "+s);process.exit(1)}console.log(v)})' "$1"; }
call() { # method path [json]; fails loudly on an HTTP error
  local method=$1 path=$2 body=${3:-}
  local out status
  if [ -n "$body" ]; then out=$(curl "${J[@]}" -X "$method" -w '\n%{http_code}' "$BASE_URL$path" -d "$body"); else out=$(curl "${J[@]}" -X "$method" -w '\n%{http_code}' "$BASE_URL$path"); fi
  status=${out##*$'\n'}; out=${out%$'\n'*}
  if [ "$status" -ge 400 ]; then echo "$method $path -> HTTP $status: $out" >&2; return 1; fi
  printf '%s' "$out"
}

# 1. Register (an existing address is fine), then sign in.
curl "${J[@]}" -o /dev/null -X POST "$BASE_URL/api/auth/register" -d "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\",\"firstName\":\"Curl\",\"lastName\":\"Researcher\",\"countryCode\":\"US\",\"phoneNumber\":\"2025550147\",\"country\":\"US\",\"currency\":\"USD\",\"language\":\"en\",\"agreeToTOS\":true}" || true
call POST /api/auth/login "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}" >/dev/null

# 2. A new order form (or the one in progress).
ID=$(call GET /api/order-form/new | field orderForm.identity)
echo "order form $ID" >&2

# 3. Upload a real .docx made here.
node scripts/make-docx.mjs "$WORK/manuscript.docx"
curl -sS -b "$JAR" -c "$JAR" -f -o /dev/null -F "mainFiles=@$WORK/manuscript.docx;type=application/vnd.openxmlformats-officedocument.wordprocessingml.document" "$BASE_URL/api/order-form/$ID/files"

# 4. Steps: get started, services, additional services (skipped to details), details, payment.
call PUT "/api/order-form/$ID/basic-details" '{"customerGoal":"manuscript","wordCount":3200,"language":1}' | field orderForm.currentStep >&2
call PUT "/api/order-form/$ID/selected-service" '{"serviceIdentities":["standard-editing"],"deliveryTier":"standard"}' | field orderForm.total >&2
call PUT "/api/order-form/$ID/step" '{"step":"details"}' >/dev/null
AREA=$(call GET "/api/areas-of-study?q=bio" | field areas.0.id)
call PUT "/api/order-form/$ID/details" "{\"projectTitle\":\"Curl order $(date +%s)\",\"areaOfStudyId\":$AREA,\"styleOfEnglish\":\"american\"}" | field orderForm.currentStep >&2
ORDER=$(call POST "/api/order-form/$ID/payments" '{"paymentMethodId":9,"acceptedTermsAndConditions":true,"purchaseOrder":"CURL-1"}')
echo "$ORDER" | field order.invoiceNumber | sed 's/^/invoice /' >&2
echo "$ORDER" | field order.externalId
