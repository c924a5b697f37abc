package billing

import (
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"
)

// FuzzParseEvent feeds the webhook parser arbitrary bodies, both unsigned
// and correctly signed (so the JSON reading behind the signature check is
// reached): it must never panic, and a parsed event always has an id.
func FuzzParseEvent(f *testing.F) {
	f.Add([]byte(`{"id":"evt_1","object":"event","type":"invoice.paid","data":{"object":{"object":"invoice","customer":"cus_1","parent":{"subscription_details":{"subscription":"sub_1"}}}}}`), "t=1,v1=00", true)
	f.Add([]byte(`{"id":"evt_2","object":"event","type":"customer.subscription.deleted","data":{"object":{"id":"sub_1","object":"subscription","customer":{"id":"cus_1"}}}}`), "", true)
	f.Add([]byte(`{"data":{"object":[]}}`), "t=99999999999,v1=zz", false)
	f.Add([]byte(`not json`), "t=,v1=", true)
	s, err := NewStripe(StripeConfig{SecretKey: "sk_test_fuzz", WebhookSecret: "whsec_fuzz",
		Prices: map[string]string{"hobby": "price_h", "pro": "price_p", "farm": "price_f"}, APIBase: "http://127.0.0.1:1"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, sig string, sign bool) {
		if sign {
			sig = webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: "whsec_fuzz", Timestamp: time.Now()}).Header
		}
		ev, err := s.ParseEvent(body, sig)
		if err == nil && ev == nil {
			t.Fatal("no event and no error")
		}
		if err != nil && KindOf(err) != BadSignature {
			t.Fatalf("unexpected error kind: %v", err)
		}
	})
}
