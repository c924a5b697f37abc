package mail

import "fmt"

// Message is one email's subject and plain-text body.
type Message struct{ Subject, Body string }

// Verify asks a new account to confirm its email address by opening link.
func Verify(link string) Message {
	return Message{"Verify your Layerfix email", fmt.Sprintf(
		"Welcome to Layerfix!\n\nConfirm your email address by opening this link:\n%s\n\nYou can use Layerfix while unverified. If you did not create an account, ignore this email.\n", link)}
}

// Reset sends the one-hour link that chooses a new password.
func Reset(link string) Message {
	return Message{"Reset your Layerfix password", fmt.Sprintf(
		"Hello,\n\nSomeone asked to reset the password of your Layerfix account. Open this link within one hour to choose a new password:\n%s\n\nIf it was not you, ignore this email: your password stays as it is.\n", link)}
}

// EmailChange asks the new address of an account to confirm itself within
// 24 hours.
func EmailChange(link string) Message {
	return Message{"Confirm your new Layerfix email address", fmt.Sprintf(
		"Hello,\n\nSomeone asked to make this address the email of a Layerfix account. Open this link within 24 hours to confirm it:\n%s\n\nIf it was not you, ignore this email: nothing changes.\n", link)}
}
