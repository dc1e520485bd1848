"""Pays a Headless Onramp order on its payment-button page in headless Chromium, as Coinbase's demo app
drives it from a WebView (components/onramp/APIGuestCheckoutWidget.tsx): the page loads, the pay button
(id api-onramp-apple-pay-button) is clicked, the sandbox wallet sheet is answered, and the widget
events the page posts are collected until the last one the action leads to.

Usage: payment_button_browser.py PAYMENT_URL approve|decline|cancel|auto SCREENSHOT_PREFIX
("auto": the URL carries sandboxSheet=approve, so pressing the pay button answers the sheet itself,
as the demo's hidden WebView needs.)
Prints JSON {events: [eventName...], eventData: [...], status: <status line text>, payButtonShown: bool,
debugList: [the texts a sandboxDebug=1 page lists]}.
"""
import json
import sys

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, action, screenshots = sys.argv[1:4]
last_event = {
    "approve": "onramp_api.polling_success",
    "decline": "onramp_api.commit_error",
    "cancel": "onramp_api.cancel",
    "auto": "onramp_api.polling_success",
}[action]
driver = chromium.start()


def events():
    return driver.execute_script("return (window.onrampEvents || []).map(function (e) { return e; })")


try:
    driver.get(url)
    WebDriverWait(driver, 30).until(
        lambda d: any(e["eventName"] == "onramp_api.load_success" for e in events()))
    driver.save_screenshot(f"{screenshots}-loaded.png")
    driver.find_element(By.ID, "api-onramp-apple-pay-button").click()
    if action != "auto":
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "sheet").is_displayed())
        driver.save_screenshot(f"{screenshots}-sheet.png")
        driver.find_element(By.ID, f"sheet-{action}").click()
    WebDriverWait(driver, 60).until(lambda d: any(e["eventName"] == last_event for e in events()))
    driver.save_screenshot(f"{screenshots}-{action}.png")
    seen = events()
    print(json.dumps({
        "events": [e["eventName"] for e in seen],
        "eventData": [e.get("data", {}) for e in seen],
        "status": driver.find_element(By.ID, "order-status").text,
        # Whether a pay button a person could press is still on the page.
        "payButtonShown": any(
            button.is_displayed() and button.is_enabled()
            for button in driver.find_elements(By.CSS_SELECTOR, "#pay-form button")),
        "debugList": [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#sandbox-event-list li")],
    }))
finally:
    driver.quit()
