"""Takes a Headless Onramp embedded-mode order through its page in headless Chromium, as a user in Coinbase's
webview would: the contact form (phone, email, terms), the code (the sandbox's 000000), then the wallet's
payment-button page, where the pay button is pressed and the sandbox sheet approved.

Usage: embedded_order_browser.py EMBEDDED_ORDER_URL PHONE SCREENSHOT_PREFIX
Prints JSON {events: [eventName...], status: <status line text>, steps: [page title per step]}.
"""
import json
import sys

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, phone, screenshots = sys.argv[1:4]
driver = chromium.start()
steps = []


def events():
    return driver.execute_script("return (window.onrampEvents || []).map(function (e) { return e; })")


try:
    driver.get(url)
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "contact-form"))
    steps.append(driver.find_element(By.ID, "order-status").get_attribute("data-status"))
    driver.save_screenshot(f"{screenshots}-contact.png")
    driver.find_element(By.ID, "phone").send_keys(phone)
    driver.find_element(By.ID, "email").send_keys("embedded@example.com")
    driver.find_element(By.NAME, "agreement").click()
    driver.find_element(By.ID, "send-code").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "code-form"))
    steps.append(driver.find_element(By.ID, "order-status").get_attribute("data-status"))
    driver.save_screenshot(f"{screenshots}-code.png")
    driver.find_element(By.ID, "code").send_keys("000000")
    driver.find_element(By.ID, "verify").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "api-onramp-apple-pay-button"))
    WebDriverWait(driver, 30).until(lambda d: any(e["eventName"] == "onramp_api.load_success" for e in events()))
    steps.append(driver.find_element(By.ID, "order-status").get_attribute("data-status"))
    driver.save_screenshot(f"{screenshots}-pay.png")
    driver.find_element(By.ID, "api-onramp-apple-pay-button").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "sheet").is_displayed())
    driver.find_element(By.ID, "sheet-approve").click()
    WebDriverWait(driver, 60).until(lambda d: any(e["eventName"] == "onramp_api.polling_success" for e in events()))
    driver.save_screenshot(f"{screenshots}-done.png")
    print(json.dumps({
        "events": [e["eventName"] for e in events()],
        "status": driver.find_element(By.ID, "order-status").text,
        "steps": steps,
    }))
finally:
    driver.quit()
