"""Drives the Embedded test-mode hosted pages in headless Chromium (selenium + chromium-driver).

Arguments come from the environment: ONRAMP_OTP_URL, ONRAMP_3DS_URL, ONRAMP_IDENTITY_URL and
ONRAMP_ARTIFACTS (a directory for screenshots). Each page is opened, photographed, answered through
its plain HTML form, and the result page photographed. Exits non-zero on the first failure.
"""
import os
import sys

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

artifacts = os.environ["ONRAMP_ARTIFACTS"]
os.makedirs(artifacts, exist_ok=True)
driver = chromium.start(window="430,932")


def shot(name):
    path = os.path.join(artifacts, f"{name}.png")
    driver.save_screenshot(path)
    print(path)


def click_until(selector, text):
    """Clicks the button and waits (up to 60 s, for loaded CI machines) for the next page to contain `text`."""
    driver.find_element(By.CSS_SELECTOR, selector).click()
    try:
        WebDriverWait(driver, 60).until(lambda d: text in d.page_source)
    except Exception:
        pass
    return text in driver.page_source


def expect(condition, message):
    if not condition:
        print(f"FAIL {message}: {driver.page_source[:500]}", file=sys.stderr)
        driver.quit()
        sys.exit(1)


try:
    driver.get(os.environ["ONRAMP_OTP_URL"])
    expect("Enter the code" in driver.page_source, "OTP page shown")
    shot("embedded-otp-page")
    driver.find_element(By.ID, "code").send_keys("123456")
    expect(click_until("button[value=allow]", "That code is not correct"), "wrong OTP code refused")
    shot("embedded-otp-wrong-code")
    driver.find_element(By.ID, "code").send_keys("000000")
    expect(click_until("button[value=allow]", "Access allowed"), "OTP consent recorded")
    shot("embedded-otp-allowed")

    driver.get(os.environ["ONRAMP_3DS_URL"])
    expect("Complete authentication" in driver.page_source, "3DS page shown")
    shot("embedded-3ds-challenge")
    expect(click_until("button[value=complete]", "Authentication complete"), "3DS completed")
    shot("embedded-3ds-complete")

    driver.get(os.environ["ONRAMP_IDENTITY_URL"])
    expect("Verify your identity" in driver.page_source, "identity page shown")
    shot("embedded-identity-choices")
    expect(click_until("button[value=verified]", "Outcome recorded"), "identity outcome recorded")
    shot("embedded-identity-verified")
finally:
    driver.quit()
print("ok")
